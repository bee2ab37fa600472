"""Benchmarks: measured figures for the README, never timed tests."""
