class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        b, T, _ = x.shape
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        heads = range(self.num_heads)
        cut = lambda t, h: t[..., h * self.head_dim:(h + 1) * self.head_dim]     # head h's features, (b, T, hd)
        # every head's (T, T) scores stacked into (b, h, T, T), so that one dropout call covers them all
        scores = torch.stack([cut(queries, h) @ cut(keys, h).transpose(1, 2) for h in heads], dim=1)
        scores = scores.masked_fill(self.mask[:T, :T], -torch.inf) / math.sqrt(self.head_dim)
        weights = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.cat([weights[:, h] @ cut(values, h) for h in heads], dim=-1)    # (b, T, d_out)
        return self.out_proj(context)
