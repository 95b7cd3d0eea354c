//===- GPULTOOptionsTest.cpp - LLVM options of the GPU LTO ----------------===//

#include "GPULTOOptions.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace wrapper;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

// Link-time OpenMPOpt runs as in upstream's device link: no option of the
// wrapper's own turns it off, and the user's options pass as given.
TEST(GPULTOOptions, UserOptionsPassAsGiven) {
  EXPECT_THAT(gpuLTOOptions({}), IsEmpty());
  EXPECT_THAT(gpuLTOOptions({"-openmp-opt-disable"}),
              ElementsAre("-openmp-opt-disable"));
  EXPECT_THAT(gpuLTOOptions({"-pass-remarks=openmp-opt", "-time-passes"}),
              ElementsAre("-pass-remarks=openmp-opt", "-time-passes"));
}

// Without its state-machine rewrite the pass leaves SPMD-ised kernels asking
// for the generic state machine, which the device runtime runs in generic
// mode: that option also turns SPMD-isation off.
TEST(GPULTOOptions, NoStateMachineRewriteMeansNoSPMDisation) {
  EXPECT_THAT(gpuLTOOptions({"-openmp-opt-disable-state-machine-rewrite"}),
              ElementsAre("-openmp-opt-disable-state-machine-rewrite",
                          "-openmp-opt-disable-spmdization"));
  EXPECT_THAT(
      gpuLTOOptions({"--openmp-opt-disable-state-machine-rewrite=true"}),
      ElementsAre("--openmp-opt-disable-state-machine-rewrite=true",
                  "-openmp-opt-disable-spmdization"));
  // The last value counts.
  EXPECT_THAT(gpuLTOOptions({"-openmp-opt-disable-state-machine-rewrite",
                             "-openmp-opt-disable-state-machine-rewrite=0"}),
              ElementsAre("-openmp-opt-disable-state-machine-rewrite",
                          "-openmp-opt-disable-state-machine-rewrite=0"));
  // A user who says what SPMD-isation should do is taken at their word.
  EXPECT_THAT(gpuLTOOptions({"-openmp-opt-disable-state-machine-rewrite",
                             "-openmp-opt-disable-spmdization=false"}),
              ElementsAre("-openmp-opt-disable-state-machine-rewrite",
                          "-openmp-opt-disable-spmdization=false"));
  // Another option that merely starts with the same letters is not it.
  EXPECT_THAT(gpuLTOOptions({"-openmp-opt-disable-state-machine-rewrite-x"}),
              ElementsAre("-openmp-opt-disable-state-machine-rewrite-x"));
}

} // namespace
