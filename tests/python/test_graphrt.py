"""The graphrt Python module on the model zoo's golden cases (TFLM's reference outputs)."""
import json
import os
import pathlib

import numpy as np
import pytest

import graphrt

ZOO = pathlib.Path(os.environ.get("GRT_MODEL_ZOO", ""))
HAVE_ZOO = (ZOO / "models").is_dir() and (ZOO / "golden").is_dir()
if not HAVE_ZOO and os.environ.get("CI") == "true":
    raise RuntimeError(f"model zoo missing under CI: {ZOO} has no models/ and golden/")
needs_zoo = pytest.mark.skipif(not HAVE_ZOO, reason="model zoo not found: set GRT_MODEL_ZOO")


def golden_cases(name):
    folder = ZOO / "golden" / name
    meta = json.loads((folder / "meta.json").read_text())
    cases = []
    k = 1
    while (folder / f"case{k}.in0.bin").exists():
        ins = [np.fromfile(folder / f"case{k}.in{i}.bin", dtype=t["dtype"]).reshape(t["shape"])
               for i, t in enumerate(meta["inputs"])]
        outs = [np.fromfile(folder / f"case{k}.out{o}.bin", dtype=t["dtype"]).reshape(t["shape"])
                for o, t in enumerate(meta["outputs"])]
        cases.append((ins, outs))
        k += 1
    return meta, cases


@needs_zoo
@pytest.mark.parametrize("name", ["mlperf_kws_dscnn_int8", "person_detect", "simple_add_model"])
def test_integer_models_match_tflm_byte_for_byte(name):
    model = graphrt.import_tflite(str(ZOO / "models" / f"{name}.tflite"))
    meta, cases = golden_cases(name)
    assert cases
    for ins, outs in cases:
        got = model.run({info["name"]: x for info, x in zip(model.inputs, ins)})
        assert list(got) == [info["name"] for info in model.outputs]
        for want, have in zip(outs, got.values()):
            assert have.dtype == want.dtype and have.shape == want.shape
            assert have.tobytes() == want.tobytes()


@needs_zoo
def test_float_model_matches_within_tolerance():
    model = graphrt.load(str(ZOO / "models" / "hello_world_float.tflite"))
    meta, cases = golden_cases("hello_world_float")
    tolerance = meta["comparison"]["per_output"][0]["tolerance"]
    for ins, outs in cases:
        (have,) = model.run(ins).values()  # a list in input order works too
        np.testing.assert_allclose(have, outs[0], atol=tolerance["abs"], rtol=tolerance["rel"])


@needs_zoo
def test_tensor_descriptions_follow_the_model():
    model = graphrt.import_tflite(str(ZOO / "models" / "mlperf_kws_dscnn_int8.tflite"))
    meta, _ = golden_cases("mlperf_kws_dscnn_int8")
    (info,) = model.inputs
    assert info["dtype"] == np.int8
    assert list(info["shape"]) == meta["inputs"][0]["shape"]
    assert info["scale"] == pytest.approx(meta["inputs"][0]["scale"])
    assert info["zero_point"] == meta["inputs"][0]["zero_point"]
    assert model.outputs[0]["zero_point"] == meta["outputs"][0]["zero_point"]


@needs_zoo
def test_a_blob_written_by_the_module_loads_and_gives_the_same_outputs(tmp_path):
    imported = graphrt.import_tflite(str(ZOO / "models" / "mlperf_kws_dscnn_int8.tflite"))
    blob = tmp_path / "kws.grt"
    blob.write_bytes(imported.blob)
    loaded = graphrt.load(str(blob))
    _, cases = golden_cases("mlperf_kws_dscnn_int8")
    ins, outs = cases[0]
    assert next(iter(loaded.run(ins).values())).tobytes() == outs[0].tobytes()


@needs_zoo
def test_memory_figures_per_strategy():
    model = graphrt.import_tflite(str(ZOO / "models" / "mlperf_kws_dscnn_int8.tflite"))
    static = model.memory("static")
    assert static["pool_bytes"] > 0 and static["bookkeeping_bytes"] > 0
    assert static["total_bytes"] == static["pool_bytes"] + static["bookkeeping_bytes"]
    assert model.memory("stack")["allocator_bytes"] > 0
    assert model.memory("page")["allocator_bytes"] > 0
    with pytest.raises(graphrt.Error, match="not one of static, page, stack"):
        model.memory("heap")


@needs_zoo
def test_profile_names_every_node():
    model = graphrt.import_tflite(str(ZOO / "models" / "mlperf_kws_dscnn_int8.tflite"))
    _, cases = golden_cases("mlperf_kws_dscnn_int8")
    model.run(cases[0][0])
    nodes = model.profile(runs=2)
    assert len(nodes) > 5
    assert all(n["kernel"] and n["seconds"] >= 0 for n in nodes)
    assert any(n["kernel"].startswith("depthwise_conv2d") for n in nodes)


@needs_zoo
def test_bad_inputs_raise_with_the_reason():
    model = graphrt.import_tflite(str(ZOO / "models" / "mlperf_kws_dscnn_int8.tflite"))
    shape = model.inputs[0]["shape"]
    with pytest.raises(ValueError, match="dtype"):
        model.run([np.zeros(shape, dtype=np.float32)])
    with pytest.raises(ValueError, match="elements"):
        model.run([np.zeros(3, dtype=np.int8)])
    with pytest.raises(ValueError, match="no value for input"):
        model.run({"not_an_input": np.zeros(shape, dtype=np.int8)})
    with pytest.raises(ValueError, match="1 input"):
        model.run([])


def test_files_that_are_not_models_raise_graphrt_error(tmp_path):
    with pytest.raises(graphrt.Error, match="missing.grt"):
        graphrt.load(str(tmp_path / "missing.grt"))
    junk = tmp_path / "junk.grt"
    junk.write_bytes(b"\x00" * 64)
    with pytest.raises(graphrt.Error, match="junk.grt"):
        graphrt.load(str(junk))
    truncated = tmp_path / "t.tflite"
    truncated.write_bytes(b"\x1c\x00\x00\x00TFL3" + b"\x00" * 8)
    with pytest.raises(graphrt.Error, match="TFLite"):
        graphrt.import_tflite(str(truncated))
