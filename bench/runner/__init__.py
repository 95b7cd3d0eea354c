"""The side-by-side benchmark runner of the offload toolchain (bench/run)."""
