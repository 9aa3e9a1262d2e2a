"""Refresh the service's vendored stylesheet library (``make vendor-css``; ``PICO_VERSION=2.x.y`` for
another release): Pico CSS's classless build, taken from its npm package with ``npm pack`` (the
registry's own client), with its license, into ``autograder/service/web/static/``; the package's
name, version and the file's SHA-256 go into ``vendored.json`` beside it, which a test checks the
committed file against (tests/test_service_style.py).

The service serves the file itself (``autograder/service/web/static.py``): no page loads anything
from a CDN.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import tarfile
import tempfile
from pathlib import Path

from autograder.paths import KIT_ROOT

# Not imported from autograder/service/web/static.py, which reads the files this writes.
STATIC_DIR = KIT_ROOT / "autograder" / "service" / "web" / "static"
VENDORED_MANIFEST = "vendored.json"
PACKAGE = "@picocss/pico"
# The file inside the package (the classless build: the pages style plain elements) and its name here.
PACKAGE_FILE = "package/css/pico.classless.min.css"
LICENSE_FILE = "package/LICENSE.md"
STYLESHEET = "pico.classless.min.css"
LICENSE_COPY = "pico.LICENSE.md"


def vendor(version: str, folder: Path = STATIC_DIR) -> dict[str, str]:
    """Fetch ``PACKAGE@version`` and write its stylesheet, license and manifest into ``folder``."""
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(["npm", "pack", "--silent", f"{PACKAGE}@{version}"], cwd=scratch,
                              capture_output=True, text=True, check=True, timeout=300)
        archive = Path(scratch) / done.stdout.strip().splitlines()[-1]
        with tarfile.open(archive) as package:
            stylesheet = package.extractfile(PACKAGE_FILE).read()
            license_text = package.extractfile(LICENSE_FILE).read()
    if f"v{version} ".encode() not in stylesheet[:200]:
        raise SystemExit(f"{PACKAGE}@{version}'s {PACKAGE_FILE} does not name version {version} in its header")
    (folder / STYLESHEET).write_bytes(stylesheet)
    (folder / LICENSE_COPY).write_bytes(license_text)
    manifest = {"package": PACKAGE, "version": version, "license": "MIT", "source": PACKAGE_FILE,
                "file": STYLESHEET, "license_file": LICENSE_COPY, "sha256": hashlib.sha256(stylesheet).hexdigest()}
    (folder / VENDORED_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("version", help="the npm package's version, e.g. 2.1.1")
    manifest = vendor(parser.parse_args().version)
    print(f"vendored {manifest['package']}@{manifest['version']} as {STATIC_DIR / manifest['file']}")


if __name__ == "__main__":
    main()
