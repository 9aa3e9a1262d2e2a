class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))
        self.d_out = d_out

    def forward(self, x):
        # one matmul against the three matrices side by side, then cut the result in three
        fused = torch.cat([self.W_query, self.W_key, self.W_value], dim=1)  # (d_in, 3 * d_out)
        q, k, v = (x @ fused).split(self.d_out, dim=1)
        w = torch.softmax(q @ k.T / math.sqrt(self.d_out), dim=1)
        return w @ v
