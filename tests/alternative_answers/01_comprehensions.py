"""Python comprehensions over the tokens, stacked back into tensors; max and sum unpacked from
their named tuples."""

import torch


def attention_scores_for_query(inputs, query):
    return torch.stack([torch.dot(token, query) for token in inputs])


def attention_scores(inputs):
    return torch.stack([torch.stack([torch.dot(a, b) for b in inputs]) for a in inputs])


def softmax_naive(x, dim=-1):
    exps = torch.exp(x)
    totals = torch.sum(exps, dim=dim, keepdim=True)
    return exps / totals


def softmax_stable(x, dim=-1):
    biggest, _ = torch.max(x, dim=dim, keepdim=True)
    exps = torch.exp(x - biggest)
    return exps / exps.sum(dim=dim, keepdim=True)


def context_vector(attn_weights, inputs):
    return sum(weight * token for weight, token in zip(attn_weights, inputs, strict=True))


def simple_self_attention(inputs):
    rows = []
    for query in inputs:
        weights = torch.softmax(torch.stack([torch.dot(query, key) for key in inputs]), dim=0)
        rows.append(sum(weight * token for weight, token in zip(weights, inputs, strict=True)))
    return torch.stack(rows)
