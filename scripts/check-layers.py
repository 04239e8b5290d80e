#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks the layering of src/ that the build's include folders cannot see:
#   1. the libraries' dependency lists (kf_library(kf_X ... DEPS ...) in src/X/CMakeLists.txt) form
#      no cycle: CMake links a cycle of static libraries without a word, and a cycle lets any
#      library reach any other;
#   2. only cli, the composition root, builds the outside world's real implementations: NVRTC and
#      the CUDA driver loaded, the confined compilers, libcurl's transport, git's repository, the
#      confined shell, and the caches' folders. Each may also be used by the one library that
#      defines it. Every other library is handed what it needs by its caller.
#
#   scripts/check-layers.py [ROOT]        (default: the repository holding this script)
#
# Prints FILE:LINE: what is wrong and what to do, one line per finding; exits 1 on any finding,
# 0 when the layering holds.
import os, re, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
src = os.path.join(root, 'src')
findings = []

# 1. the dependency graph
deps = {}
for folder in sorted(os.listdir(src)):
    cmake = os.path.join(src, folder, 'CMakeLists.txt')
    if not os.path.isfile(cmake):
        continue
    text = open(cmake).read()
    for m in re.finditer(r'kf_library\(\s*(kf_\w+)(.*?)\)', text, re.S):
        body = m.group(2)
        d = re.search(r'\bDEPS\b(.*)', body, re.S)
        deps[m.group(1)] = ([x for x in re.findall(r'\bkf_\w+', d.group(1))] if d else [], cmake)
state = {}
def visit(node, path):
    if state.get(node) == 'done':
        return
    if state.get(node) == 'open':
        cycle = path[path.index(node):] + [node]
        findings.append(f"{deps[node][1]}:1: the libraries depend on each other in a cycle: {' -> '.join(cycle)}: "
                        "move what the lower one needs below both")
        return
    state[node] = 'open'
    for d in deps.get(node, ([], ''))[0]:
        if d in deps:
            visit(d, path + [node])
    state[node] = 'done'
for node in deps:
    visit(node, [])

# 2. the real implementations, by what builds them, and the library allowed to use them
real = [
    (r'\bload_nvrtc\s*\(', 'cuda', 'NVRTC loaded'),
    (r'\bload_driver\s*\(|\bCudaDriver::load\s*\(', 'cuda', 'the CUDA driver loaded'),
    (r'\bIsolatedCompiler\s*[>({]', 'cuda', 'NVRTC\'s confined child built'),
    (r'\bNvccUnitCompiler\s*[>({]', 'cuda', 'nvcc built'),
    (r'\blocate_toolkit\s*\(', 'cuda', 'the toolkit looked for'),
    (r'\bmake_curl_transport\s*\(', 'http', 'libcurl\'s transport built'),
    (r'\bopen_repository\s*\(', 'git', 'a git repository opened'),
    (r'\bconfined_shell_runner\s*\(', 'harness', 'the confined shell built'),
    (r'\bdefault_unit_cache_directory\s*\(', 'builds', 'the unit cache\'s folder chosen'),
    (r'\bdefault_ptx_cache_directory\s*\(', 'policy', 'the PTX cache\'s folder chosen'),
    (r'\bdefault_forecast_cache_directory\s*\(', 'llm', 'the forecast cache\'s folder chosen'),
    (r'\bdefault_harness_cache\s*\(', 'harness', 'the harness worktrees\' folder chosen'),
]
for folder in sorted(os.listdir(src)):
    path = os.path.join(src, folder)
    if folder == 'cli' or not os.path.isdir(path):
        continue
    for base, _, files in os.walk(path):
        for name in sorted(files):
            if not name.endswith(('.cpp', '.hpp')):
                continue
            file = os.path.join(base, name)
            for number, line in enumerate(open(file, errors='replace'), 1):
                code = line.split('//', 1)[0]
                for pattern, owner, what in real:
                    if folder != owner and re.search(pattern, code):
                        findings.append(f"{os.path.relpath(file, root)}:{number}: {what} below cli: have the caller "
                                        f"hand it in (cli builds the real one, cli/real_world.cpp)")

for finding in findings:
    print(finding)
print(f"check-layers: {len(findings)} finding(s)" if findings else "check-layers: the layering holds")
sys.exit(1 if findings else 0)
