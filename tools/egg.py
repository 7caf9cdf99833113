"""Minimal deterministic writer for Panda3D .egg text files (triangles, normals, UVs, colours)."""

from __future__ import annotations

import numpy as np


def _f(x: float) -> str:
    s = f"{float(x):.5f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class Mesh:
    """Indexed triangle mesh with per-vertex position, normal, uv and colour."""

    def __init__(self, name: str, texture: str | None = None, rgba=(1, 1, 1, 1)):
        self.name = name
        self.texture = texture
        self.rgba = tuple(rgba)
        self.verts: list[tuple] = []
        self.tris: list[tuple[int, int, int]] = []

    def vertex(self, pos, normal, uv=(0.0, 0.0), rgba=None) -> int:
        """Add a vertex; ``rgba`` gives it its own colour (baked light), else the mesh's."""
        n = np.asarray(normal, float)
        n = n / (np.linalg.norm(n) or 1.0)
        colour = None if rgba is None else tuple(map(float, rgba))
        self.verts.append((tuple(map(float, pos)), tuple(n), tuple(map(float, uv)), colour))
        return len(self.verts) - 1

    def tri(self, a, b, c):
        self.tris.append((a, b, c))

    def quad(self, a, b, c, d):
        self.tris.append((a, b, c))
        self.tris.append((a, c, d))

    def box(self, x0, y0, z0, x1, y1, z1, uv_scale=1.0, skip=()):
        """Axis-aligned box with outward normals; skip: faces like '-z', '+x'."""
        faces = {
            "+z": ((0, 0, 1), [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]),
            "-z": ((0, 0, -1), [(x0, y1, z0), (x1, y1, z0), (x1, y0, z0), (x0, y0, z0)]),
            "+x": ((1, 0, 0), [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)]),
            "-x": ((-1, 0, 0), [(x0, y1, z0), (x0, y0, z0), (x0, y0, z1), (x0, y1, z1)]),
            "+y": ((0, 1, 0), [(x1, y1, z0), (x0, y1, z0), (x0, y1, z1), (x1, y1, z1)]),
            "-y": ((0, -1, 0), [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)]),
        }
        for key, (n, pts) in faces.items():
            if key in skip:
                continue
            ax = [i for i in range(3) if n[i] == 0]
            ids = [self.vertex(p, n, (p[ax[0]] * uv_scale, p[ax[1]] * uv_scale)) for p in pts]
            self.quad(*ids)


def write_egg(
    path: str, meshes: list[Mesh], textures: dict[str, str], root: str, comment: str = ""
) -> None:
    """textures: name -> filename (relative to the egg file, forward slashes)."""
    out = ["<CoordinateSystem> { Z-up }", ""]
    if comment:
        out.insert(0, '<Comment> { "' + comment.replace('"', "'") + '" }')
    for name, fn in textures.items():
        out += [
            f"<Texture> {name} {{",
            f'  "{fn}"',
            "  <Scalar> wrap { repeat }",
            "  <Scalar> minfilter { linear_mipmap_linear }",
            "  <Scalar> magfilter { linear }",
            "  <Scalar> anisotropic-degree { 4 }",
            "}",
        ]
    out.append(f"<Group> {root} {{")
    for m in meshes:
        out.append(f"  <Group> {m.name} {{")
        out.append(f"    <VertexPool> {m.name}.verts {{")
        for i, (p, n, uv, colour) in enumerate(m.verts):
            vrgba = "" if colour is None else " <RGBA> { " + " ".join(map(_f, colour)) + " }"
            out.append(
                f"      <Vertex> {i} {{ {_f(p[0])} {_f(p[1])} {_f(p[2])} "
                f"<Normal> {{ {_f(n[0])} {_f(n[1])} {_f(n[2])} }} "
                f"<UV> {{ {_f(uv[0])} {_f(uv[1])} }}{vrgba} }}"
            )
        out.append("    }")
        per_vertex = any(v[3] is not None for v in m.verts)
        rgba = "" if per_vertex else "<RGBA> { " + " ".join(_f(c) for c in m.rgba) + " } "
        tref = f"<TRef> {{ {m.texture} }} " if m.texture else ""
        for a, b, c in m.tris:
            out.append(
                f"    <Polygon> {{ {tref}{rgba}"
                f"<VertexRef> {{ {a} {b} {c} <Ref> {{ {m.name}.verts }} }} }}"
            )
        out.append("  }")
    out.append("}")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")
