class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = d_out
        total = num_heads * self.head_dim
        self.W_query = nn.Linear(d_in, total, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, total, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, total, bias=qkv_bias)
        self.out_proj = nn.Linear(total, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        T = x.shape[1]
        q, k, v = (split_heads(l(x), self.num_heads) for l in (self.W_query, self.W_key, self.W_value))
        s = (q @ k.transpose(-2, -1)).masked_fill(self.mask[:T, :T], float("-inf")) / self.head_dim ** 0.5
        w = self.dropout(torch.softmax(s, dim=-1))
        return self.out_proj(merge_heads(w @ v))
