import torch


def gpt2_small_attention():
    return MultiHeadAttention(768, 768, context_length=1024, dropout=0.1, num_heads=12, qkv_bias=True)
