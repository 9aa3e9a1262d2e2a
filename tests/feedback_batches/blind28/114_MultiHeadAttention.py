class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_in // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.mask = torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1)

    def forward(self, x):
        b, T, _ = x.shape
        def split(t):
            return t.view(b, T, self.num_heads, self.head_dim).transpose(1, 2)
        q, k, v = split(self.W_query(x)), split(self.W_key(x)), split(self.W_value(x))
        scores = (q @ k.transpose(2, 3)).masked_fill(self.mask[:T, :T], 0.0)
        weights = self.dropout(torch.softmax(scores / self.head_dim ** 0.5, dim=-1))
        context = (weights @ v).transpose(1, 2).reshape(b, T, -1)
        return self.out_proj(context)
