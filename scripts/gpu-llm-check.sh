#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU machine, with a kforecast built elsewhere (CARRY, default .carry/): `pr --forecaster llm`
# against a loopback fake endpoint (python3's standard library), with forecast.hardware = "local",
# NVRTC's compiler facts and a kernel with a launch spec, then the same with the endpoint failing
# and forecast.fallback = "embedded". Writes the prompt the endpoint received and both reports to
# OUT (HARDWARE names a table GPU instead of "local", for a dry run without one). Reads only;
# never changes clocks, power or modes.
set -uo pipefail
command -v python3 >/dev/null || { echo "gpu-llm-check: python3 is needed for the fake endpoint" >&2; exit 3; }
carry=${CARRY:-.carry}
out=${OUT:-./gpu-llm-out}
mkdir -p "$out"
out=$(realpath "$out")
kforecast=$(realpath "$carry/kforecast")
repo=$(mktemp -d)
git init -q -b main "$repo"
commit() { git -C "$repo" add -A && git -C "$repo" -c user.name=t -c user.email=t@kforecast.invalid commit -q -m "$1"; }
printf '[forecast]\nhardware = "%s"\nfallback = "embedded"\n[endpoint]\nmax_retries = 0\n' "${HARDWARE:-local}" >"$repo/.kforecast.toml"
spec='// kforecast:
// sizes = [{ n = 16777216 }, { n = 65536 }]
// grid = ["ceil_div(n, 256)"]
// block = [256]
// [kernel.args]
// x = { count = "n" }
// y = { count = "n", role = "out" }
// n = "n"'
printf '%s\n__global__ void scale(const float* x, float* y, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = 2.0f * x[i];\n}\n' "$spec" >"$repo/k.cu"
commit base
printf '%s\n__global__ void scale(const float* __restrict__ x, float* __restrict__ y, int n) {\n  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = 2.0f * x[i];\n}\n' "$spec" >"$repo/k.cu"
commit head

cat >"$repo/.fake_endpoint.py" <<'EOF'
import http.server, json, sys
status = int(sys.argv[2])
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        with open(sys.argv[3], "w") as f:
            f.write(body["messages"][1]["content"])
        answer = {"rationale": "grid-stride loop, same traffic", "p1_severe_slowdown": 0, "p2_significant_slowdown": 0,
                  "p3_moderate_slowdown": 0.05, "p4_minor_slowdown": 0.35, "p5_minor_speedup": 0.5,
                  "p6_significant_speedup": 0.1, "p7_high_speedup": 0, "p8_extreme_speedup": 0, "predicted_bin": 5}
        reply = {"choices": [{"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": json.dumps(answer)}}]}
        if status != 200:
            reply = {"error": {"message": "overloaded"}}
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
EOF
run() {  # STATUS NAME
  python3 "$repo/.fake_endpoint.py" 18931 "$1" "$out/$2-prompt.txt" &
  local server=$!
  sleep 1
  (cd "$repo" && KFORECAST_ENDPOINT=http://127.0.0.1:18931/v1 KFORECAST_MODEL=fake XDG_CACHE_HOME="$repo/.cache-$2" \
    "$kforecast" pr --base HEAD~1 --forecaster llm) >"$out/$2-report.md" 2>&1
  echo "exit status: $?" >>"$out/$2-report.md"
  kill "$server"
  wait "$server" 2>/dev/null
}
{
  echo "# date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1
} >"$out/host.txt"
run 200 answered
run 500 fallback
cat "$out/host.txt" "$out/answered-prompt.txt" "$out/answered-report.md" "$out/fallback-report.md"
