import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        q = torch.mm(x, self.W_query)
        k = torch.mm(x, self.W_key)
        v = torch.mm(x, self.W_value)
        # PyTorch's fused kernel: scale 1/sqrt(d_out), softmax over the keys, weighted sum of the values
        return F.scaled_dot_product_attention(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0)).squeeze(0)
