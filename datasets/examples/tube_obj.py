#!/usr/bin/env python3
"""Writes tube.obj: an open cylindrical tube (a sleeve) as a quad mesh, the non-trivial topology
example of tube_drop.json. Axis along x, radius 0.08 m, length 0.40 m, 12 nodes around and 7 along.
Usage: python3 tube_obj.py > tube.obj"""
import math

RADIUS, LENGTH, AROUND, ALONG = 0.08, 0.40, 12, 7

print(f"# tube: radius {RADIUS} m, length {LENGTH} m, {AROUND} x {ALONG} nodes (tube_obj.py)")
for j in range(ALONG):
    x = LENGTH * j / (ALONG - 1)
    for i in range(AROUND):
        a = 2 * math.pi * i / AROUND
        print(f"v {x:.6f} {RADIUS * math.cos(a):.6f} {RADIUS * math.sin(a):.6f}")
node = lambda i, j: j * AROUND + (i % AROUND) + 1  # OBJ indices are 1-based
for j in range(ALONG - 1):
    for i in range(AROUND):
        # counter-clockwise seen from outside: outward normals
        print(f"f {node(i, j)} {node(i + 1, j)} {node(i + 1, j + 1)} {node(i, j + 1)}")
