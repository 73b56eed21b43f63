"""Use cases: what a person can do, as plain functions the web, the CLI and benchmarks call."""
