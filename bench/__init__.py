"""Benchmarks (`make bench`): each prints its figures; none is a test."""
