"""Benchmarks, one package sharing one harness (bench/harness.py); run each as a module from the
repository's root, e.g. `python -m bench.chat_latency`."""
