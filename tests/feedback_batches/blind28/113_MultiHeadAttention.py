class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} not divisible by num_heads={num_heads}")
        self.h = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        T = x.shape[1]
        q, k, v = (split_heads(p(x), self.h) for p in (self.W_query, self.W_key, self.W_value))
        s = (q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5).masked_fill(self.mask[:T, :T], -torch.inf)
        out = self.out_proj(merge_heads(torch.softmax(s, dim=-1) @ v))
        return self.dropout(out)
