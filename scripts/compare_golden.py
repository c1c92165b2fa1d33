"""Compares a run's outputs (DIR/out<j>.bin) with TFLM's reference case K of a golden folder:
integer outputs byte for byte, float32 outputs within the tolerance meta.json gives."""
import json
import pathlib
import struct
import sys


def main(golden: pathlib.Path, case: int, outputs: pathlib.Path) -> int:
    meta = json.loads((golden / "meta.json").read_text())
    per_output = meta.get("comparison", {}).get("per_output", [])
    ok = True
    for j, info in enumerate(meta["outputs"]):
        want = (golden / f"case{case}.out{j}.bin").read_bytes()
        got = (outputs / f"out{j}.bin").read_bytes()
        if len(got) != len(want):
            print(f"demo: output {j} has {len(got)} bytes, TFLM's has {len(want)}", file=sys.stderr)
            ok = False
            continue
        if info["dtype"] == "float32":
            tolerance = (per_output[j].get("tolerance") if j < len(per_output) else None) or {"abs": 0.0, "rel": 0.0}
            n = len(want) // 4
            worst = 0.0
            for g, w in zip(struct.unpack(f"<{n}f", got), struct.unpack(f"<{n}f", want)):
                if abs(g - w) > tolerance["abs"] + tolerance["rel"] * abs(w):
                    print(f"demo: output {j} is {g}, TFLM's {w}: outside the tolerance "
                          f"(abs {tolerance['abs']}, rel {tolerance['rel']})", file=sys.stderr)
                    ok = False
                    break
                worst = max(worst, abs(g - w))
            else:
                print(f"demo: output {j} (float32) matches TensorFlow Lite Micro's reference within its tolerance "
                      f"(abs {tolerance['abs']:g}, rel {tolerance['rel']:g}; largest difference {worst:g})")
        elif got == want:
            print(f"demo: output {j} ({info['dtype']}) matches TensorFlow Lite Micro's reference byte for byte")
        else:
            first = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
            print(f"demo: output {j} differs from TensorFlow Lite Micro's reference at byte {first}", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]), int(sys.argv[2]), pathlib.Path(sys.argv[3])))
