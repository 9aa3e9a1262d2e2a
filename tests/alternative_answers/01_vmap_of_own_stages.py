"""Stages built from the student's own earlier stages with ``torch.vmap`` (blind13/006, a fresh
reviewer's simple_self_attention): the scores row by row from ``attention_scores_for_query``, and
the context vectors from ``context_vector`` and ``softmax_stable``. Under vmap the grader's
consulted stand-ins cannot send their arguments, so the student's own stages run: right ones earn
full marks."""

import torch


def attention_scores_for_query(inputs, query):
    return torch.mv(inputs, query)


def attention_scores(inputs):
    return torch.vmap(attention_scores_for_query, in_dims=(None, 0))(inputs, inputs)


def softmax_stable(x, dim=-1):
    shifted = x - x.amax(dim=dim, keepdim=True)
    return shifted.exp() / shifted.exp().sum(dim=dim, keepdim=True)


def context_vector(attn_weights, inputs):
    return attn_weights @ inputs


def simple_self_attention(inputs):
    weights = softmax_stable(attention_scores(inputs), dim=-1)
    return torch.vmap(context_vector, in_dims=(0, None))(weights, inputs)
