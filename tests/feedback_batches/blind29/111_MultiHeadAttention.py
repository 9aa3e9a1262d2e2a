class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(0.1)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1))

    def forward(self, x):
        b, T, _ = x.shape
        h, hd = self.num_heads, self.head_dim
        # fold heads into the batch: (b, T, d_out) -> (b, h, T, hd) -> (b * h, T, hd)
        q, k, v = (split_heads(f(x), h).reshape(b * h, T, hd) for f in (self.W_query, self.W_key, self.W_value))
        scores = torch.bmm(q, k.transpose(1, 2)).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores / hd, dim=-1))
        context = torch.bmm(weights, v).view(h, b, T, hd).transpose(0, 1)  # back to (b, h, T, hd)
        return self.out_proj(merge_heads(context))
