"""Hangs while loading: its server never starts, so it never prints the readiness line."""

import time

time.sleep(3600)
