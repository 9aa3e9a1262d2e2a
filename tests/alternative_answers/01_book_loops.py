"""The book's own loops (chapter 3.3): results filled into ``torch.empty``/``torch.zeros`` in the
default float32, whatever the inputs' dtype."""

import torch


def attention_scores_for_query(inputs, query):
    attn_scores_2 = torch.empty(inputs.shape[0])
    for i, x_i in enumerate(inputs):
        attn_scores_2[i] = torch.dot(x_i, query)
    return attn_scores_2


def attention_scores(inputs):
    attn_scores = torch.empty(inputs.shape[0], inputs.shape[0])
    for i, x_i in enumerate(inputs):
        for j, x_j in enumerate(inputs):
            attn_scores[i, j] = torch.dot(x_i, x_j)
    return attn_scores


def softmax_naive(x, dim=-1):
    return torch.exp(x) / torch.exp(x).sum(dim=dim, keepdim=True)


def context_vector(attn_weights, inputs):
    context_vec_2 = torch.zeros(inputs.shape[1])
    for i, x_i in enumerate(inputs):
        context_vec_2 += attn_weights[i] * x_i
    return context_vec_2


def simple_self_attention(inputs):
    attn_scores = torch.empty(inputs.shape[0], inputs.shape[0])
    for i, x_i in enumerate(inputs):
        for j, x_j in enumerate(inputs):
            attn_scores[i, j] = torch.dot(x_i, x_j)
    attn_weights = torch.softmax(attn_scores, dim=-1)
    all_context_vecs = torch.zeros(inputs.shape)
    for i in range(inputs.shape[0]):
        for j, x_j in enumerate(inputs):
            all_context_vecs[i] += attn_weights[i, j] * x_j
    return all_context_vecs
