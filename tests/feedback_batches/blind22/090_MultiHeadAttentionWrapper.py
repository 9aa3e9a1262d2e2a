import torch
from torch import nn


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias))

    def forward(self, x):
        outputs = [head(x) for head in self.heads]
        width = outputs[0].shape[-1]
        merged = outputs[0].new_empty(*outputs[0].shape[:-1], width * len(outputs))
        for i, out in enumerate(outputs):
            merged[..., i * width:(i + 1) * width] = out  # head i's block of features
        return merged
