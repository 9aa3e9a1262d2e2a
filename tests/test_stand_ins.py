"""Stand-ins for graded stages (ARCHITECTURE.md, "Fairness"): made of data on the trusted side,
built in a real sandboxed worker, called by the student's own code, and gone after the block."""

from __future__ import annotations

import pytest
import torch

from autograder.hidden import stand_ins
from autograder.probes.client import Submission
from autograder.reading.notebook import extract_definitions
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.layout import MANUAL_SLOT, standard_sandbox, worker_uid
from autograder.sandbox.session import ForkServerChannel, WorkerSession

STUDENT_CODE = '''
import torch
from torch import nn

def split_heads(x, num_heads):
    return x * 0  # wrong: the tests of the stages that call it use a stand-in

def attention_of_heads(x, num_heads):
    return split_heads(x, num_heads=num_heads) * 2

class Layer(nn.Module):
    def __init__(self, d_in, d_out, bias=False):
        super().__init__()
        self.proj = nn.Linear(d_in, d_out, bias=bias)

def build_layer(d_in):
    layer = Layer(d_in, d_out=2)
    return layer.eval()

def copy_transposed(source, target):
    with torch.no_grad():
        target.W.copy_(source.proj.weight.T)
'''


def reference_split_heads(x, num_heads):
    """The "reference" of these tests: never sent to the worker, only its index tables."""
    b, num_tokens, d_out = x.shape
    return x.view(b, num_tokens, num_heads, d_out // num_heads).transpose(1, 2)


class ReferenceLayer(torch.nn.Module):
    def __init__(self, d_in, d_out, bias=False):
        super().__init__()


def reference_build_layer(d_in):
    return ReferenceLayer(d_in, 2)


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    server = ForkServer()
    code = extract_definitions({"cells": [{"cell_type": "code", "source": STUDENT_CODE}]})
    sandbox = standard_sandbox(worker_uid(MANUAL_SLOT), [str(tmp_path_factory.mktemp("worker"))])
    worker = WorkerSession(ForkServerChannel(server.control(0)), code, sandbox, timeout=5)
    ready = worker.start()
    yield Submission(worker, ready.defined, ready.load_problems, ready.isolation)
    worker.close()
    server.close()


def test_a_rearrangement_stands_in_for_the_called_stage_and_goes_after_the_block(student):
    x = torch.randn(2, 3, 6, dtype=torch.float64)
    split = {"split_heads": stand_ins.rearrangement(reference_split_heads, [((2, 3, 6), (3,))])}
    with student.standing_in(split):
        assert torch.equal(student.call("attention_of_heads", x, 3), reference_split_heads(x, 3) * 2)
        # A call outside the table (another number of heads) is the student's own.
        assert torch.equal(student.call("attention_of_heads", x, 2), x * 0)
        gradients = student.backward("attention_of_heads", (x.clone().requires_grad_(True), 3),
                                     torch.ones(2, 3, 3, 2, dtype=torch.float64))
    assert torch.equal(gradients["arg_grads"][0], torch.full((2, 3, 6), 2.0, dtype=torch.float64))
    assert torch.equal(student.call("attention_of_heads", x, 3), x * 0)


def test_a_rearrangement_runs_on_the_stand_in_gpu(student):
    split = {"split_heads": stand_ins.rearrangement(reference_split_heads, [((2, 5, 4), (2,))])}
    with student.standing_in(split):
        output = student.call_on_stand_in_gpu("attention_of_heads", torch.empty(2, 5, 4, device="meta"), 2)
    assert output.device.type == "meta"
    assert output.shape == (2, 2, 5, 2)


def test_a_recorder_records_how_a_stage_builds_the_class_it_stands_in_for(student):
    result, built = stand_ins.student_configuration(student, ReferenceLayer, "Layer", "build_layer", 5)
    assert result.type_name == "Layer"
    assert [bound.arguments for bound in built] == [{"d_in": 5, "d_out": 2, "bias": False}]
    [expected] = stand_ins.reference_configuration(reference_build_layer, "ReferenceLayer", 5)
    assert expected.arguments == built[0].arguments
    assert student.new("Layer", 5, 3).describe()["parameters"] == {"proj.weight": [[3, 5], "cpu"]}


def test_a_container_holds_given_parameters_under_their_names(student):
    weight = torch.randn(2, 5)
    source = student.container("Layer", {"proj.weight": weight, "proj.bias": torch.zeros(2)})
    target = student.container("Target", {"W": torch.zeros(5, 2)})
    assert source.describe()["children"] == {"proj": "Linear"}
    student.call("copy_transposed", source, target)
    assert torch.equal(target.attr("W"), weight.T)
    assert target.describe()["parameters"] == {"W": [[5, 2], "cpu"]}
