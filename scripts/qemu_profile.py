#!/usr/bin/env python3
"""Instructions per function of a Cortex-M firmware image, counted under qemu.

qemu 7.2 (Debian 12) has no TCG plugins, so this runs the image with qemu's own logs:
`-d in_asm` prints every translated block's instructions once, `-d exec,nochain` one line per
block executed. Each block's executions times its instructions, summed by the function the
block starts in, is that function's executed instructions (a block that an exception leaves
early is counted whole; qemu-7.2 translates at most one function per block).

    python3 scripts/qemu_profile.py build/cortex-m4/tests/target/fw_mlperf_kws_dscnn_int8.elf

prints the functions that executed most, with their share and their count per call of
`grt_run` (the whole run, init and the harness included, divided by the calls the image
made: compare two images that run the same harness). The log is large (about 100 bytes per
block executed: ~1 GB for 50 M instructions) and is deleted afterwards.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\] (\S*)")
INSTRUCTION = re.compile(r"^0x([0-9a-f]{8}):")


def profile(log_path):
    """(instructions per function, executions per block start) from a qemu log."""
    block_size = {}
    executions = collections.Counter()
    function_of = {}
    start, size = None, 0
    with open(log_path, errors="replace") as log:
        for line in log:
            if line.startswith("Trace"):
                if start is not None:
                    block_size[start], start = size, None
                match = TRACE.match(line)
                if match:
                    pc = int(match.group(1), 16)
                    executions[pc] += 1
                    function_of[pc] = match.group(2) or "?"
            elif line.startswith("0x"):
                match = INSTRUCTION.match(line)
                if match:
                    if start is None:
                        start, size = int(match.group(1), 16), 0
                    size += 1
            elif start is not None:  # "IN:", "----", a blank line: the block ended
                block_size[start], start = size, None
    if start is not None:
        block_size[start] = size
    per_function = collections.Counter()
    for pc, count in executions.items():
        per_function[function_of[pc]] += count * block_size.get(pc, 1)
    return per_function, executions, function_of


def demangled(names):
    tool = shutil.which("arm-none-eabi-c++filt") or shutil.which("c++filt")
    if tool is None or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True, check=True).stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("image", help="the firmware ELF")
    parser.add_argument("--qemu", default="qemu-system-arm")
    parser.add_argument("--machine", default="mps2-an386")
    parser.add_argument("--top", type=int, default=40, help="functions listed (default 40)")
    parser.add_argument("--keep-log", metavar="PATH", help="keep qemu's log here")
    args = parser.parse_args()
    if not os.path.isfile(args.image):
        sys.exit(f"qemu_profile: {args.image}: no such file")
    log_dir = tempfile.mkdtemp(prefix="qemu_profile_")
    log_path = args.keep_log or os.path.join(log_dir, "qemu.log")
    try:
        command = [args.qemu, "-M", args.machine, "-nographic", "-semihosting-config", "enable=on,target=native",
                   "-icount", "shift=0", "-kernel", args.image, "-d", "in_asm,exec,nochain", "-D", log_path]
        run = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        if run.returncode != 0:
            sys.exit(f"qemu_profile: the image exited with {run.returncode}:\n{run.stdout}{run.stderr}")
        per_function, executions, function_of = profile(log_path)
    finally:
        shutil.rmtree(log_dir, ignore_errors=True)
    total = sum(per_function.values())
    if total == 0:
        sys.exit("qemu_profile: qemu logged no executed block")
    # grt_run's calls: executions of its first block, the one at its lowest address.
    run_blocks = [pc for pc in executions if function_of[pc] == "grt_run"]
    runs = executions[min(run_blocks)] if run_blocks else 0
    top = per_function.most_common(args.top)
    names = demangled([name for name, _ in top])
    print(f"{args.image}: {total} instructions executed, {runs} calls of grt_run")
    print(f"{'instructions':>14} {'share':>7} {'per grt_run':>12}  function")
    for name, count in top:
        per_run = f"{count / runs:12.0f}" if runs else f"{'-':>12}"
        print(f"{count:14d} {100.0 * count / total:6.2f}% {per_run}  {names[name]}")


if __name__ == "__main__":
    main()
