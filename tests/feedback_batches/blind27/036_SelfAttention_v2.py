from torch import nn


class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections.

    Attributes: W_query, W_key, W_value, each nn.Linear(d_in, d_out, bias=qkv_bias), created
    in that order.
    """

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    @property
    def scale(self):
        """1 / sqrt(d_k), where d_k is the number of features W_key makes."""
        return self.W_key.out_features ** -0.5

    def forward(self, x):
        """x: (T, d_in) -> context vectors (T, d_out)."""
        keys = self.W_key(x)
        weights = (self.W_query(x) @ keys.T * self.scale).softmax(dim=-1)
        return weights @ self.W_value(x)
