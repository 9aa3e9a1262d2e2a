class MultiHeadAttention(nn.Module):
    """Causal multi-head attention with one projection split across the heads."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("visible", torch.ones(context_length, context_length, dtype=torch.bool).tril())

    def forward(self, x):
        T = x.shape[1]
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5
        scores = torch.where(self.visible[:T, :T], scores, float("-inf"))
        weights = self.dropout(scores.softmax(dim=-1))
        return self.out_proj(merge_heads(weights @ v))
