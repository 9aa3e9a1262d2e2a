class _ScaledAttentionMixin:
    """Shared arithmetic: softmax(Q K^T / sqrt(d_k)) V for one sequence."""

    @staticmethod
    def attend(queries, keys, values):
        scores = queries @ keys.transpose(-2, -1) / keys.shape[-1] ** 0.5
        return torch.softmax(scores, dim=-1) @ values


class SelfAttention_v2(_ScaledAttentionMixin, nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        return self.attend(self.W_query(x), self.W_key(x), self.W_value(x))
