import torch


def wrapper_with_2d_output(d_in, context_length, dropout):
    total_features, num_heads = 2, 2
    per_head = total_features // num_heads  # the wrapper's d_out is per head
    return MultiHeadAttentionWrapper(d_in, per_head, context_length, dropout, num_heads=num_heads)
