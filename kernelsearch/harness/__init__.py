"""The evaluation harness: sandboxed build -> check -> guard -> time of untrusted kernels."""
