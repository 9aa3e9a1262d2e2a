"""Scores gathered as Python numbers with .item() and turned back into a tensor (torch's default
float32); a softmax over a Python list of exponentials."""

import math

import torch


def attention_scores_for_query(inputs, query):
    return torch.tensor([torch.dot(token, query).item() for token in inputs])


def attention_scores(inputs):
    return torch.tensor([[torch.dot(a, b).item() for b in inputs] for a in inputs])


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
