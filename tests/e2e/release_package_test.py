"""The release archive and the action's download of it: scripts/package-release.sh packs a built
tree; scripts/get-kforecast.sh, as the action runs it at a release tag, downloads it over HTTP from
a loopback server laid out like GitHub's release downloads, checks its checksum and version, and
installs it; a tampered archive is refused. Usage: release_package_test.py SOURCE_DIR BUILD_DIR"""
import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path

SOURCE, BUILD = Path(sys.argv[1]), Path(sys.argv[2])


def run(*args, env=None):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env, timeout=300)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Release(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.version = run(BUILD / "src/kforecast", "--version").stdout.split()[1]
        # GitHub's layout: /OWNER/NAME/releases/download/TAG/ASSET
        cls.assets = root / "www/octo/kforecast/releases/download" / f"v{cls.version}"
        packed = run(SOURCE / "scripts/package-release.sh", BUILD, cls.assets)
        assert packed.returncode == 0, packed.stderr
        cls.archive = Path(packed.stdout.strip())
        handler = functools.partial(QuietHandler, directory=str(root / "www"))
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.tmp.cleanup()

    def get(self, prefix, ref=None):
        env = dict(os.environ, KF_RELEASE_URL=f"http://127.0.0.1:{self.server.server_port}",
                   KF_ACTION_REPOSITORY="octo/kforecast", KF_ACTION_REF=ref or f"v{self.version}",
                   KF_BUILD_FALLBACK="0")
        return run(SOURCE / "scripts/get-kforecast.sh", prefix, env=env)

    def test_archive_holds_the_stripped_binary_and_the_capture_library(self):
        listing = run("tar", "-tzf", self.archive).stdout.split()
        top = f"kforecast-{self.version}-linux-{os.uname().machine}/"
        for member in ("bin/kforecast", "lib/kforecast/libkforecast_capture.so", "README.md"):
            self.assertIn(top + member, listing)
        self.assertTrue(Path(f"{self.archive}.sha256").read_text().endswith(f"{self.archive.name}\n"))

    def test_the_action_downloads_checks_and_installs_the_release(self):
        with tempfile.TemporaryDirectory() as prefix:
            got = self.get(prefix)
            self.assertEqual(got.returncode, 0, got.stderr)
            self.assertIn(f"release v{self.version}", got.stdout)
            installed = run(Path(prefix) / "bin/kforecast", "--version")
            self.assertEqual(installed.stdout.strip(), f"kforecast {self.version}")
            self.assertTrue((Path(prefix) / "lib/kforecast/libkforecast_capture.so").is_file())
            again = self.get(prefix)  # the action's cache restored: nothing downloaded
            self.assertIn("cached", again.stdout)

    def test_a_tampered_archive_is_refused(self):
        original = self.archive.read_bytes()
        try:
            self.archive.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))
            with tempfile.TemporaryDirectory() as prefix:
                got = self.get(prefix)
                self.assertEqual(got.returncode, 1)
                self.assertIn("checksum mismatch", got.stderr)
                self.assertFalse((Path(prefix) / "bin/kforecast").exists())
        finally:
            self.archive.write_bytes(original)

    def test_a_tag_without_a_release_is_said(self):
        with tempfile.TemporaryDirectory() as prefix:
            got = self.get(prefix, ref="v9.9.9")
            self.assertEqual(got.returncode, 1)
            self.assertIn("download failed", got.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
