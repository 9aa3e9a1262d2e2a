class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.scale = (d_out // num_heads) ** -0.5
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        hidden = torch.ones(context_length, context_length, dtype=torch.bool).triu(1)
        self.register_buffer("causal", hidden, persistent=False)  # moves with .to(), not saved

    def heads(self, t):
        """(b, T, d_out) -> (b, h, T, hd): chunk the features, stack the chunks as heads."""
        return torch.stack(t.chunk(self.num_heads, dim=-1), dim=1)

    def forward(self, x):
        b, T, _ = x.shape
        q, k, v = self.heads(self.W_query(x)), self.heads(self.W_key(x)), self.heads(self.W_value(x))
        scores = (q @ k.transpose(-1, -2) * self.scale).masked_fill(self.causal[:T, :T], float("-inf"))
        weights = self.dropout(scores.softmax(dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, T, -1)
        return self.out_proj(context)
