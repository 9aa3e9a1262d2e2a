import torch


def simple_self_attention(inputs):
    weights = softmax_stable(attention_scores(inputs), dim=1)  # built from this notebook's own stages
    return weights.mm(inputs)
