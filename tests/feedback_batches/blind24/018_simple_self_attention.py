import torch


def simple_self_attention(inputs):
    attn_scores = inputs @ inputs.T
    attn_weights = torch.softmax(attn_scores, dim=0)
    return attn_weights @ inputs
