#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Installs the headers of CUDA's libraries (cuBLAS, cuBLASLt, cuSPARSE, cuSOLVER, cuRAND, cuFFT,
NVTX) from NVIDIA's pinned PyPI wheels into a toolkit folder's include/, where nvcc finds them.

Kernel files include these headers (PyTorch's ATen/cuda/CUDAContext.h includes cublas_v2.h,
cublasLt.h, cusparse.h and cusolverDn.h) even where they call nothing of the libraries, so a unit
compiles only where they exist. The wheels are large (about 1 GB together) and the headers small
(about 4 MB), so each wheel is read as a zip archive over HTTP range requests: its directory at
the end, then only the header members. Where a server does not answer ranges, the whole wheel is
downloaded instead.

    cuda-library-headers.py TOOLKIT_FOLDER WHEEL==VERSION...
"""
import io
import json
import os
import sys
import urllib.parse
import urllib.request
import zipfile

PREFIX = "nvidia/cu13/include/"
TIMEOUT = 60


class RangeFile(io.RawIOBase):
    """A read-only, seekable view of a file over HTTP, each read one range request."""

    def __init__(self, url, size):
        self.url, self.size, self.position = url, size, 0

    def seekable(self):
        return True

    def readable(self):
        return True

    def tell(self):
        return self.position

    def seek(self, offset, whence=io.SEEK_SET):
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = max(0, base + offset)
        return self.position

    def readinto(self, buffer):
        if self.position >= self.size or len(buffer) == 0:
            return 0
        end = min(self.size, self.position + max(len(buffer), 1 << 16)) - 1
        request = urllib.request.Request(self.url, headers={"Range": f"bytes={self.position}-{end}"})
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            if answer.status != 206:
                raise OSError(f"no range answer from {self.url} (HTTP {answer.status})")
            data = answer.read()
        count = min(len(data), len(buffer))
        buffer[:count] = data[:count]
        self.position += count
        return count


def wheel_url(requirement):
    name, version = requirement.split("==")
    index = f"https://pypi.org/pypi/{name}/json"
    with urllib.request.urlopen(index, timeout=TIMEOUT) as answer:
        releases = json.load(answer)["releases"]
    for file in releases.get(version, []):
        if file["packagetype"] == "bdist_wheel" and "x86_64" in file["filename"]:
            return urllib.parse.urljoin(index, file["url"]), file["size"]  # a mirror may answer relative URLs
    raise OSError(f"{requirement}: PyPI lists no x86_64 wheel")


def extract(archive, include):
    count = 0
    for member in archive.infolist():
        if not member.filename.startswith(PREFIX) or member.is_dir():
            continue
        relative = member.filename[len(PREFIX):]
        if relative.startswith("/") or ".." in relative.split("/"):
            raise OSError(f"unsafe member name {member.filename!r}")
        target = os.path.join(include, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with archive.open(member) as source, open(target + ".part", "wb") as out:
            out.write(source.read())
        os.replace(target + ".part", target)
        count += 1
    return count


def main():
    toolkit, requirements = sys.argv[1], sys.argv[2:]
    include = os.path.join(toolkit, "include")
    total = 0
    for requirement in requirements:
        url, size = wheel_url(requirement)
        try:
            archive = zipfile.ZipFile(io.BufferedReader(RangeFile(url, size), buffer_size=1 << 20))
        except (OSError, zipfile.BadZipFile) as error:
            print(f"cuda-library-headers: {requirement}: {error}; downloading the whole wheel ({size >> 20} MB)")
            with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
                archive = zipfile.ZipFile(io.BytesIO(answer.read()))
        count = extract(archive, include)
        if count == 0:
            raise SystemExit(f"cuda-library-headers: {requirement} holds no {PREFIX} headers")
        total += count
    print(f"cuda-library-headers: {total} headers of {len(requirements)} wheels in {include}")


if __name__ == "__main__":
    main()
