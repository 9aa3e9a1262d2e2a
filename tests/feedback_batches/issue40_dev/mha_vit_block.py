class MultiHeadAttention(nn.Module):
    """A ViT encoder block's attention, renamed to the notebook's parameters."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out)
        self.W_key = nn.Linear(d_in, d_out)
        self.W_value = nn.Linear(d_in, d_out)
        self.out_proj = nn.Linear(d_out, d_out)
        self.proj_drop = nn.Dropout(dropout)

    def forward(self, x):
        B, N, _ = x.shape
        q, k, v = (f(x).view(B, N, self.num_heads, self.head_dim).transpose(1, 2)
                   for f in (self.W_query, self.W_key, self.W_value))
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, -1)
        return self.proj_drop(self.out_proj(x))
