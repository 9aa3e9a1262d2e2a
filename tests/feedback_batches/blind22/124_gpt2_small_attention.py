import torch


def gpt2_small_attention():
    return MultiHeadAttention(768, 64, 1024, 0.0, 12)
