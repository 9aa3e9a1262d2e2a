class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} not divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        b, T, d_out = x.shape[0], x.shape[1], self.num_heads * self.head_dim
        q = self.W_query(x).view(b, self.num_heads, T, self.head_dim)
        k = self.W_key(x).view(b, self.num_heads, T, self.head_dim)
        v = self.W_value(x).view(b, self.num_heads, T, self.head_dim)
        scores = (q @ k.transpose(2, 3)).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores / d_out ** 0.5, dim=-1))
        context = (weights @ v).transpose(1, 2).contiguous().view(b, T, d_out)
        return self.out_proj(context)
