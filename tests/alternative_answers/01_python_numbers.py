"""A context vector summed from Python numbers (attn_weights.tolist()); a softmax over a Python list
of exponentials. The scores are torch.mv and torch.mm: the notebook asks for them without a Python
loop, and scores rebuilt from .item() would be cut from autograd and left on the CPU."""

import math

import torch


def attention_scores_for_query(inputs, query):
    return torch.mv(inputs, query)


def attention_scores(inputs):
    return torch.mm(inputs, inputs.t())


def context_vector(attn_weights, inputs):
    total = torch.zeros_like(inputs[0])
    for weight, token in zip(attn_weights.tolist(), inputs, strict=True):
        total = total + weight * token
    return total


def simple_self_attention(inputs):
    outputs = []
    for query in inputs:
        exps = [math.exp(torch.dot(query, key).item()) for key in inputs]
        weights = [value / sum(exps) for value in exps]
        outputs.append(sum(weight * token for weight, token in zip(weights, inputs, strict=True)))
    return torch.stack(outputs)
