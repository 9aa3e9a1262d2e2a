def with_causal_mask(cls):
    """Class decorator: after __init__, register the (context_length, context_length) causal mask."""
    original_init = cls.__init__

    def __init__(self, d_in, d_out, context_length, *args, **kwargs):
        original_init(self, d_in, d_out, context_length, *args, **kwargs)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    cls.__init__ = __init__
    return cls


@with_causal_mask
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError(f"d_out ({d_out}) is not divisible by num_heads ({num_heads})")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        b, T, _ = x.shape
        heads = lambda t: t.unflatten(-1, (self.num_heads, self.head_dim)).transpose(1, 2)
        q, k, v = heads(self.W_query(x)), heads(self.W_key(x)), heads(self.W_value(x))
        s = (q @ k.transpose(2, 3)) * self.head_dim ** -0.5
        s = s.masked_fill(self.mask[:T, :T], torch.finfo(s.dtype).min)
        w = torch.exp(s - torch.logsumexp(s, dim=-1, keepdim=True))
        context = (self.dropout(w) @ v).transpose(1, 2).flatten(2)
        return self.out_proj(context)
