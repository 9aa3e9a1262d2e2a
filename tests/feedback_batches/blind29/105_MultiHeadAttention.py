class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"num_heads={num_heads} must divide d_out={d_out}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def _heads(self, t):
        # chunk the features and stack the chunks along a new head dim: (b, T, d_out) -> (b, h, T, hd)
        return torch.stack(t.chunk(self.num_heads, dim=-1), dim=1)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = map(self._heads, (self.W_query(x), self.W_key(x), self.W_value(x)))
        scores = torch.where(self.mask[:T, :T], float("-inf"), q @ k.transpose(-1, -2) / self.head_dim ** 0.5)
        context = self.dropout(torch.softmax(scores, dim=-1)) @ v
        return self.out_proj(torch.cat(context.unbind(1), dim=-1))
