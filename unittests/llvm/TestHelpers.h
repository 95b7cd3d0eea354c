//===- TestHelpers.h - llvm::Error / Expected in GoogleTest -----*- C++ -*-===//
//
// LLVM's own gtest matchers live in a library Debian does not ship, so these
// small helpers do the same for our tests.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_UNITTESTS_TESTHELPERS_H
#define OFFLOAD_UNITTESTS_TESTHELPERS_H

#include "llvm/Support/Error.h"

#include <string>

/// Asserts that the Expected<T> lvalue \p X holds a value, printing the
/// error otherwise.
#define ASSERT_OK(X) ASSERT_TRUE(!!(X)) << llvm::toString((X).takeError())

/// Asserts that the llvm::Error \p E is success, printing it otherwise.
#define ASSERT_NO_ERROR(E) ASSERT_EQ(offload_test::errorMessage(E), "<success>")

namespace offload_test {

/// The message of the error \p E holds, or "<success>".
template <typename T> std::string errorMessage(llvm::Expected<T> E) {
  if (E)
    return "<success>";
  return llvm::toString(E.takeError());
}
inline std::string errorMessage(llvm::Error E) {
  if (!E)
    return "<success>";
  return llvm::toString(std::move(E));
}

} // namespace offload_test

#endif // OFFLOAD_UNITTESTS_TESTHELPERS_H
