class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        # stored like nn.Linear does: (out, in)
        self.W_query = nn.Parameter(torch.rand(d_out, d_in))
        self.W_key = nn.Parameter(torch.rand(d_out, d_in))
        self.W_value = nn.Parameter(torch.rand(d_out, d_in))

    def forward(self, x):
        q = x @ self.W_query.T
        k = x @ self.W_key.T
        v = x @ self.W_value.T
        attn = torch.softmax(q @ k.T, dim=-1)
        context = attn @ v
        return attn
