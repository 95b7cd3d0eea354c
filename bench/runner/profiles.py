"""Sizes and repetitions of a run: the full run, --quick and --smoke."""


class Profile:
    def __init__(self, name, reps, **sizes):
        self.name, self.reps = name, reps
        self.__dict__.update(sizes)

    def to_json(self):
        return dict(self.__dict__)


PROFILES = {
    # The figures the issue asks for, at their stated sizes.
    "full": Profile("full", reps=7, empty_iterations=20000,
                    small_buffers=10000, small_buffer_bytes=64,
                    map_unmap_iterations=10000,
                    live_mappings=100000, many_maps=100,
                    many_maps_iterations=2000, bandwidth_mib=1024,
                    parallel_map_mib=256,
                    kernels=5000, kernel_units=10,
                    link_units=50, archive_members=200,
                    indirect_calls=1000000),
    # Same shapes, smaller sizes, fewer runs: a first look in under 2 minutes.
    "quick": Profile("quick", reps=3, empty_iterations=5000,
                     small_buffers=10000, small_buffer_bytes=64,
                     map_unmap_iterations=2000,
                     live_mappings=100000, many_maps=100,
                     many_maps_iterations=300, bandwidth_mib=64,
                     parallel_map_mib=64,
                     kernels=500, kernel_units=2,
                     link_units=10, archive_members=40,
                     indirect_calls=200000),
    # Tiny and once: proves the runner works end to end (the lit test). Its
    # numbers mean nothing.
    "smoke": Profile("smoke", reps=1, empty_iterations=100,
                     small_buffers=100, small_buffer_bytes=64,
                     map_unmap_iterations=16,
                     live_mappings=1000, many_maps=100,
                     many_maps_iterations=10, bandwidth_mib=4,
                     parallel_map_mib=4,
                     kernels=20, kernel_units=1,
                     link_units=3, archive_members=4,
                     indirect_calls=2000),
}
