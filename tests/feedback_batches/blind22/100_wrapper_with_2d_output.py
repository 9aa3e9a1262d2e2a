import torch


def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(3, 1, 6, dropout, num_heads=2)
