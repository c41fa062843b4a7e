"""Raycast: the manifest rules of Raycast's extension schema for an extension folder, and the
icon rule of `ray lint` (a 512x512 PNG in assets/). The TypeScript is checked by
plugins/raycast's own tests: tsc, Raycast's tool-schema extraction and `ray build`."""

import json
import os
import re
import struct

NAME = re.compile(r"^[a-z0-9-~][a-z0-9-._~]*$")
REQUIRED = ("name", "title", "description", "icon", "author", "license", "categories", "commands")


def png_error(file):
    """Why `ray lint` refuses an icon file, or None (its checks: PNG signature, IHDR, 512x512)."""
    with open(file, "rb") as f:
        head = f.read(33)
    if not head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "is not a PNG file"
    if head[12:16] != b"IHDR":
        return "has no readable PNG dimensions"
    width, height = struct.unpack(">II", head[16:24])
    if (width, height) != (512, 512):
        return f"is {width}x{height} pixels; Raycast requires 512x512"
    return None


def validate(path):
    with open(os.path.join(path, "package.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    errors = []
    for key in REQUIRED:
        if manifest.get(key) in (None, "", []):
            errors.append(f"package.json: `{key}` is required")
    if not NAME.match(manifest.get("name", "")):
        errors.append(f"package.json: name {manifest.get('name')!r} is not a valid extension name")
    icon = manifest.get("icon")
    if icon and not os.path.exists(os.path.join(path, "assets", icon)):
        errors.append(f"package.json: icon {icon} names a file that is not in assets/")
    elif icon and png_error(os.path.join(path, "assets", icon)):
        errors.append(f"package.json: icon assets/{icon} {png_error(os.path.join(path, 'assets', icon))}")
    for key in ("commands", "tools"):
        for i, entry in enumerate(manifest.get(key) or []):
            for field in ("name", "title", "description"):
                if not entry.get(field):
                    errors.append(f"package.json: {key}/{i}/{field} is required")
            if entry.get("icon") and not os.path.exists(os.path.join(path, "assets", entry["icon"])):
                errors.append(f"package.json: {key}/{i} icon {entry['icon']} is not in assets/")
            folder = "tools" if key == "tools" else ""
            name = entry.get("name", "")
            found = any(
                os.path.exists(os.path.join(path, "src", folder, name + ext)) for ext in (".ts", ".tsx")
            )
            if name and not found:
                errors.append(f"package.json: {key}/{i} {name} has no source file in src/{folder}")
    return errors
