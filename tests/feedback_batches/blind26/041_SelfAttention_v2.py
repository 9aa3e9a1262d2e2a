class SelfAttention_v2(nn.Module):
    """Self-attention with nn.Linear projections."""

    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_out, d_in, bias=qkv_bias)
        self.W_key = nn.Linear(d_out, d_in, bias=qkv_bias)
        self.W_value = nn.Linear(d_out, d_in, bias=qkv_bias)

    def forward(self, x):
        queries = x @ self.W_query.weight
        keys = x @ self.W_key.weight
        values = x @ self.W_value.weight
        attn_weights = torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1)
        return attn_weights @ values
