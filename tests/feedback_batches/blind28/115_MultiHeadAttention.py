class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out)
        self.W_key = nn.Linear(d_in, d_out)
        self.W_value = nn.Linear(d_in, d_out)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length).triu(1).bool())

    def _split(self, t):
        b, T, _ = t.shape
        return t.view(b, T, self.head_dim, self.num_heads).permute(0, 3, 1, 2)

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self._split(self.W_query(x)), self._split(self.W_key(x)), self._split(self.W_value(x))
        scores = (q @ k.transpose(-2, -1)).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores / self.head_dim ** 0.5, dim=-1))
        return self.out_proj(merge_heads(weights @ v))
