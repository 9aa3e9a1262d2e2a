import torch
from torch import nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in: int, d_out: int) -> None:
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # one broadcast product projects x three times: (T, d_in) @ (3, d_in, d_out) -> (3, T, d_out)
        stacked = torch.stack((self.W_query, self.W_key, self.W_value))
        queries, keys, values = torch.matmul(x, stacked).unbind(0)
        weights = torch.softmax(scaled_dot_product_scores(queries, keys), dim=-1)  # (T, T)
        return weights @ values
