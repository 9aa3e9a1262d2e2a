"""Stand-ins for graded stages (ARCHITECTURE.md, "Fairness"): made of data on the trusted side,
built in a real sandboxed worker, called by the student's own code, and gone after the block."""

from __future__ import annotations

import pytest
import torch

from autograder.hidden import stand_ins
from autograder.probes.client import Submission
from autograder.probes.consultation import MAX_CONSULTED_ELEMENTS
from autograder.probes.errors import StudentError
from autograder.reading.notebook import extract_definitions
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.layout import MANUAL_SLOT, standard_sandbox, worker_uid
from autograder.sandbox.session import MAX_CONSULTATIONS, ForkServerChannel, WorkerSession

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

def softmax_naive(x, dim=-1):
    return x * 0  # wrong: a stage calling it of its own accord is graded with the reference's answers

def weights_of(scores, dim=-1):
    return softmax_naive(scores, dim=dim) * 2

KEPT = []

def keep_softmax():
    KEPT.append(softmax_naive)  # a stand-in kept for later, when it no longer stands in

def use_kept(x):
    return KEPT[-1](x)

def weights_of_many(x, times):
    return sum(softmax_naive(x) for _ in range(times))

def weights_of_rows(x):
    return torch.vmap(softmax_naive)(x)  # vmap's tensors hold no data to send: the student's own runs

def causal_mask(num_tokens, device=None):
    return torch.ones(num_tokens, num_tokens).triu(1).bool()  # wrong: made on the CPU whatever the device

def masked(scores):
    return scores.masked_fill(causal_mask(scores.shape[-1], scores.device), 0.0)

def weights_of_list(x):
    return softmax_naive(x.tolist(), dim=-1)
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


class Reference:
    """The reference's functions the consulted stand-in answers with, in this process only."""

    @staticmethod
    def softmax_naive(x, dim=-1):
        return torch.softmax(x, dim=dim)

    @staticmethod
    def causal_mask(num_tokens, device=None):
        return torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device).triu(1)


def test_a_consulted_stand_in_answers_with_the_reference_and_gradients_flow_through_it(student):
    """A stage calling another stage of its own accord gets the reference's outputs and gradients
    for its calls, in the sandboxed worker, from this process; after the block, its own again."""
    x = torch.randn(3, 4, dtype=torch.float64)
    with student.standing_in(*stand_ins.consulted(Reference, ["softmax_naive"])):
        assert torch.allclose(student.call("weights_of", x), torch.softmax(x, dim=-1) * 2)
        assert torch.allclose(student.call("weights_of", x, dim=0), torch.softmax(x, dim=0) * 2)
        upstream = torch.randn(3, 4, dtype=torch.float64)
        gradients = student.backward("weights_of", (x.clone().requires_grad_(True),), upstream)
        on_meta = student.call("weights_of", torch.empty(2, 5, device="meta"))
        on_stand_in_gpu = student.call_on_stand_in_gpu("weights_of", torch.empty(2, 5, device="meta"))
    leaf = x.clone().requires_grad_(True)
    (torch.softmax(leaf, dim=-1) * 2).backward(upstream)
    assert torch.allclose(gradients["arg_grads"][0], leaf.grad)
    assert on_meta.device.type == "meta"
    assert on_meta.shape == (2, 5)
    assert on_stand_in_gpu.shape == (2, 5)  # fake GPU tensors stay in the worker: the student's own ran
    assert torch.equal(student.call("weights_of", x), x * 0)


def test_a_consulted_stand_in_kept_for_later_answers_no_more(student):
    """Student code that keeps the stand-in to call it when it no longer stands in (in the called
    stage's own tests, say) gets the student's own function: the trusted side answers only within
    the block."""
    x = torch.randn(3, 4)
    with student.standing_in(*stand_ins.consulted(Reference, ["softmax_naive"])):
        student.call("keep_softmax")
        assert torch.allclose(student.call("use_kept", x), torch.softmax(x, dim=-1))
    assert torch.equal(student.call("use_kept", x), x * 0)


def test_a_consulted_stand_in_declines_what_it_cannot_or_should_not_answer(student):
    """Past the questions one probe may ask, on an argument that is no tensor or plain value, on
    tensors too large, and under torch.vmap (blind13/006 crashed there), the student's own function
    runs."""
    x = torch.randn(3, 4)
    with student.standing_in(*stand_ins.consulted(Reference, ["softmax_naive"])):
        many = student.call("weights_of_many", x, MAX_CONSULTATIONS + 5)
        listed = student.call("weights_of_list", x)
        large = torch.ones(MAX_CONSULTED_ELEMENTS + 1)
        too_large = student.call("weights_of", large)
        under_vmap = student.call("weights_of_rows", x)
    assert torch.allclose(many, MAX_CONSULTATIONS * torch.softmax(x, dim=-1))
    assert listed == []  # the student's own: a list times 0
    assert torch.equal(too_large, large * 0)
    assert torch.equal(under_vmap, x * 0)


def test_a_consulted_stand_in_answers_on_the_stand_in_gpu_with_the_references_shape_and_device(student):
    """The device checks run the calling stage on fake GPU tensors: a called stage that makes its
    result on the CPU whatever the device (the student's causal_mask here) would fail the caller's
    check; the reference answers for its shape, on the stand-in, and only the caller is checked."""
    scores = torch.empty(2, 5, 5, device="meta")
    with pytest.raises(StudentError):
        student.call_on_stand_in_gpu("masked", scores)  # the student's own causal_mask, on the CPU
    with student.standing_in(*stand_ins.consulted(Reference, ["causal_mask"])):
        output = student.call_on_stand_in_gpu("masked", scores)
    assert output.device.type == "meta"
    assert output.shape == (2, 5, 5)
