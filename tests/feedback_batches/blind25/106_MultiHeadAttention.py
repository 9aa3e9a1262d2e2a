class MultiHeadAttention(nn.Module):
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
        self.register_buffer("future", torch.ones(context_length, context_length, dtype=torch.bool).triu(1),
                             persistent=False)

    @property
    def head_dim(self):
        return self.out_proj.in_features // self.num_heads

    @property
    def scale(self):
        return self.head_dim ** -0.5

    def forward(self, x):
        T = x.shape[1]
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = (q @ k.transpose(-1, -2)) * self.scale
        scores = scores.masked_fill(self.future[:T, :T], float("-inf"))
        weights = self.dropout(scores.softmax(dim=-1))
        return self.out_proj(merge_heads(weights @ v))
