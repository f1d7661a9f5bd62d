// SPDX-License-Identifier: GPL-2.0
/*
 * A management HCA's GMP as a RoCEv2 frame for a host (mad_roce.h).
 */

#include <kunit/visibility.h>
#include <linux/crc32.h>
#include <linux/module.h>
#include <linux/string.h>

#include "compat.h"
#include "mad_roce.h"

#define IBSW_ETH_P_IP		0x0800
#define IBSW_ETH_P_IPV6		0x86dd
#define IBSW_IPPROTO_UDP	17
#define IBSW_ROCE_PORT		4791
#define IBSW_ROCE_TTL		64

/*
 * The ICRC's CRC-32 after the eight bytes of ones that stand for the LRH
 * of a RoCEv2 packet (A17.4.5.1), from the initial value of all ones
 */
#define IBSW_ICRC_SEED		0xdebb20e3

/* Ones' complement sum of big-endian 16-bit words (RFC 1071) */
static u32 ibsw_csum_add(u32 sum, const u8 *p, unsigned int len)
{
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	return sum;
}

static u16 ibsw_csum_fold(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static bool ibsw_v4mapped(const struct in6_addr *a)
{
	static const u8 prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(a->s6_addr, prefix, sizeof(prefix));
}

/**
 * ibsw_roce_icrc() - the ICRC of a RoCEv2 packet
 * @ip: its IP header, the UDP header right behind it
 * @ip6: IPv6 (else IPv4)
 * @bth: its BTH
 * @len: bytes from the BTH to the ICRC
 *
 * Over the IP and UDP headers with the fields that change on the way
 * masked to ones (A17.4.5.1: IPv4 TOS, TTL and checksum; IPv6 traffic
 * class, flow label and hop limit; the UDP checksum), the BTH with its
 * eighth byte masked (FECN, BECN and the reserved bits: a switch marks
 * without recomputing it), then the rest as it is.
 *
 * Return: the ICRC, as a CPU value (rxe stores it as such: the frame
 * holds it little-endian on the machines it runs on).
 */
u32 ibsw_roce_icrc(const u8 *ip, bool ip6, const u8 *bth, unsigned int len)
{
	u8 hdr[IBSW_IP6_HLEN + IBSW_UDP_HLEN + IBSW_BTH_LEN];
	unsigned int iplen = ip6 ? IBSW_IP6_HLEN : IBSW_IP4_HLEN;
	unsigned int n = iplen + IBSW_UDP_HLEN;
	u32 crc;

	memcpy(hdr, ip, n);
	if (ip6) {
		hdr[0] |= 0x0f;
		memset(hdr + 1, 0xff, 3);
		hdr[7] = 0xff;
	} else {
		hdr[1] = 0xff;
		hdr[8] = 0xff;
		hdr[10] = 0xff;
		hdr[11] = 0xff;
	}
	hdr[iplen + 6] = 0xff;
	hdr[iplen + 7] = 0xff;
	memcpy(hdr + n, bth, IBSW_BTH_LEN);
	hdr[n + 4] = 0xff;
	crc = crc32_le(IBSW_ICRC_SEED, hdr, n + IBSW_BTH_LEN);
	crc = crc32_le(crc, bth + IBSW_BTH_LEN, len - IBSW_BTH_LEN);
	return ~crc;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_roce_icrc);

/**
 * ibsw_mad_roce_put() - write a GMP as a RoCEv2 frame
 * @p: room for %IBSW_MAD_ROCE_MAX bytes
 * @r: the frame's addresses; IPv4 if @r->daddr is v4-mapped (@r->saddr
 *	must be of the same family)
 * @bth: the GMP's BTH, DETH and MAD (%IBSW_MAD_TRANSPORT_LEN bytes)
 *
 * IPv4 goes with DF set and no UDP checksum (rxe sends none); IPv6 with
 * its mandatory UDP checksum. The ICRC is recomputed over the new
 * headers.
 *
 * Return: the frame's length.
 */
unsigned int ibsw_mad_roce_put(u8 *p, const struct ibsw_mad_roce *r,
			       const u8 *bth)
{
	bool ip6 = !ibsw_v4mapped(&r->daddr);
	unsigned int iplen = ip6 ? IBSW_IP6_HLEN : IBSW_IP4_HLEN;
	unsigned int udplen = IBSW_UDP_HLEN + IBSW_MAD_TRANSPORT_LEN +
			      IBSW_ICRC_LEN;
	u8 *ip = p + IBSW_ETH_HLEN, *udp = ip + iplen, *t = udp + IBSW_UDP_HLEN;
	u32 sum;

	memcpy(p, r->dmac, 6);
	memcpy(p + 6, r->smac, 6);
	put_unaligned_be16(ip6 ? IBSW_ETH_P_IPV6 : IBSW_ETH_P_IP, p + 12);
	memset(ip, 0, iplen);
	if (ip6) {
		/* Version 6, traffic class DSCP << 2, flow label 0 */
		put_unaligned_be32(6 << 28 | r->dscp << 22, ip);
		put_unaligned_be16(udplen, ip + 4);
		ip[6] = IBSW_IPPROTO_UDP;
		ip[7] = IBSW_ROCE_TTL;
		memcpy(ip + 8, r->saddr.s6_addr, 16);
		memcpy(ip + 24, r->daddr.s6_addr, 16);
	} else {
		ip[0] = 0x45;
		ip[1] = r->dscp << 2;
		put_unaligned_be16(iplen + udplen, ip + 2);
		put_unaligned_be16(0x4000, ip + 6);	/* DF */
		ip[8] = IBSW_ROCE_TTL;
		ip[9] = IBSW_IPPROTO_UDP;
		memcpy(ip + 12, r->saddr.s6_addr + 12, 4);
		memcpy(ip + 16, r->daddr.s6_addr + 12, 4);
		put_unaligned_be16(ibsw_csum_fold(ibsw_csum_add(0, ip, iplen)),
				   ip + 10);
	}
	put_unaligned_be16(r->sport, udp);
	put_unaligned_be16(IBSW_ROCE_PORT, udp + 2);
	put_unaligned_be16(udplen, udp + 4);
	put_unaligned_be16(0, udp + 6);
	memcpy(t, bth, IBSW_MAD_TRANSPORT_LEN);
	put_unaligned_le32(ibsw_roce_icrc(ip, ip6, t, IBSW_MAD_TRANSPORT_LEN),
			   t + IBSW_MAD_TRANSPORT_LEN);
	if (ip6) {
		/* Pseudo-header: addresses, UDP length, next header */
		sum = ibsw_csum_add(0, ip + 8, 32);
		sum += udplen + IBSW_IPPROTO_UDP;
		sum = ibsw_csum_fold(ibsw_csum_add(sum, udp, udplen));
		put_unaligned_be16(sum ?: 0xffff, udp + 6);
	}
	return IBSW_ETH_HLEN + iplen + udplen;
}
EXPORT_SYMBOL_IF_KUNIT(ibsw_mad_roce_put);
